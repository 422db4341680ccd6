// Loads angular and angular-mocks into the jsdom window before each test file.
import { loadAngular } from './helpers/load-angular';

loadAngular('angular', 'angular-mocks');
