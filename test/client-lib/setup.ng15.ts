// Loads angular15 and angular-mocks15 into the jsdom window before each test file
// (files running in the node environment, like native.test.ts, have no window: skipped).
import { loadAngular } from './helpers/load-angular';

if (typeof window !== 'undefined') loadAngular('angular15', 'angular-mocks15');
