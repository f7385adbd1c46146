import { Grid, type ModalProps } from 'antd';
import './phone-dialog.css';

type SheetProps = Pick<ModalProps, 'width' | 'className' | 'style'>;

/** Modal props for a dialog of `width`: on a phone a full-screen sheet (see phone-dialog.css), else that width. */
export function phoneDialogProps(phone: boolean, width: ModalProps['width']): SheetProps {
  return phone ? { width: '100%', className: 'phone-dialog', style: { top: 0, maxWidth: '100vw' } } : { width };
}

/**
 * Props that turn a renderer dialog (antd Modal) into a full-screen sheet on a phone (< 576 px): the screen's
 * width and height, the buttons at its foot as 44 px touch targets. On wider screens: the given width.
 */
export function usePhoneDialog(width: ModalProps['width']): SheetProps {
  return phoneDialogProps(Grid.useBreakpoint().sm === false, width);
}
