// Loads angular15 and angular-mocks15 into the jsdom window before each test file.
import { loadAngular } from './helpers/load-angular';

loadAngular('angular15', 'angular-mocks15');
