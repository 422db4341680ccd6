// Loads angular and angular-mocks into the jsdom window before each test file
// (files running in the node environment, like native.test.ts, have no window: skipped).
import { loadAngular } from './helpers/load-angular';

if (typeof window !== 'undefined') loadAngular('angular', 'angular-mocks');
