import Editor from 'react-simple-code-editor';
import Prism from 'prismjs';
import 'prismjs/components/prism-clike';
import 'prismjs/components/prism-markup';
import 'prismjs/components/prism-css';
import 'prismjs/components/prism-javascript';
import 'prismjs/components/prism-java';
import 'prismjs/components/prism-c';
import 'prismjs/components/prism-objectivec';
import 'prismjs/components/prism-python';
import 'prismjs/components/prism-r';
import 'prismjs/components/prism-bash';
import 'prismjs/components/prism-sql';
import 'prismjs/components/prism-swift';
import 'prismjs/components/prism-markdown';
import 'prismjs/themes/prism.css';

export const CODE_LANGUAGES = ['css', 'javascript', 'html', 'java', 'objective-c', 'python', 'r', 'shell', 'sql', 'swift', 'vue', 'markdown'] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];
const GRAMMAR: Record<CodeLanguage, string> = { css: 'css', javascript: 'javascript', html: 'markup', java: 'java', 'objective-c': 'objectivec', python: 'python', r: 'r', shell: 'bash', sql: 'sql', swift: 'swift', vue: 'markup', markdown: 'markdown' };
export const CODE_TAB_SIZE = 2;

export interface JCodeEditorProps {
  value?: string;
  onChange?: (v: string) => void;
  language?: CodeLanguage;
  height?: number | string;
  disabled?: boolean;
  placeholder?: string;
}

/** Code editor with highlighting (tab size 2). */
export function JCodeEditor({ value, onChange, language = 'javascript', height = 300, disabled, placeholder }: JCodeEditorProps) {
  const grammar = Prism.languages[GRAMMAR[language] ?? 'javascript'];
  return (
    <div className="j-code-editor" style={{ height, overflow: 'auto', border: '1px solid #d9d9d9', borderRadius: 6 }}>
      <Editor
        value={value ?? ''}
        onValueChange={(v) => onChange?.(v)}
        highlight={(code) => (grammar ? Prism.highlight(code, grammar, GRAMMAR[language]) : code)}
        tabSize={CODE_TAB_SIZE}
        insertSpaces
        disabled={disabled}
        placeholder={placeholder}
        padding={10}
        textareaClassName="j-code-textarea"
        style={{ fontFamily: 'Menlo, Consolas, monospace', fontSize: 13, minHeight: '100%' }}
      />
    </div>
  );
}

export default JCodeEditor;
