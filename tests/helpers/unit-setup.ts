import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { setValidateLanguage } from '@formily/core';

setValidateLanguage('zh-CN');

// Unmount whatever a test drew (globals are off, so Testing Library cannot register this itself):
// a tree left mounted keeps React work scheduled past the DOM environment's teardown.
afterEach(cleanup);
