import '@testing-library/jest-dom/vitest';
import { setValidateLanguage } from '@formily/core';

setValidateLanguage('zh-CN');
