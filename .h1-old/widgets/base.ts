import {
  ArrayItems,
  ArrayTable,
  Cascader,
  Checkbox,
  DatePicker,
  FormCollapse,
  FormGrid,
  FormItem,
  FormLayout,
  FormStep,
  FormTab,
  Input,
  NumberPicker,
  Password,
  PreviewText,
  Radio,
  Select,
  Space,
  Switch,
  TimePicker,
  Transfer,
  TreeSelect,
  Upload,
} from '@formily/antd-v5';
import { getWidget, registerWidget } from './registry';

/**
 * The stock @formily/antd-v5 controls under their Formily names (page schemas use these names in
 * `x-component` / field `widget`). Dotted names such as "Input.TextArea" and "DatePicker.RangePicker"
 * resolve through the parent. Used by the renderer's (lazily loaded) form code only, so list pages
 * don't pull Formily. A widget the widget library registered under the same name wins.
 */
let done = false;

/** Registers the stock controls (idempotent). Called at first use, not at import: chunk evaluation order must not matter. */
export function registerBaseWidgets() {
  if (done) return;
  done = true;
  const stock = {
    ArrayItems,
    ArrayTable,
    Cascader,
    Checkbox,
    DatePicker,
    FormCollapse,
    FormGrid,
    FormItem,
    FormLayout,
    FormStep,
    FormTab,
    Input,
    NumberPicker,
    Password,
    PreviewText,
    Radio,
    Select,
    Space,
    Switch,
    TimePicker,
    Transfer,
    TreeSelect,
    Upload,
    // Short aliases used by the simplified `fields` form.
    TextArea: Input.TextArea,
    DateRange: DatePicker.RangePicker,
    CheckboxGroup: Checkbox.Group,
    RadioGroup: Radio.Group,
    InputNumber: NumberPicker,
  };
  for (const [name, c] of Object.entries(stock)) if (!getWidget(name)) registerWidget(name, c as never);
}
