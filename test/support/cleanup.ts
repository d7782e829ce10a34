// Runs before each test file (vitest's setupFiles): the folders its tests made are removed after them.

import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dirs.js';

afterAll(removeTempDirs);
