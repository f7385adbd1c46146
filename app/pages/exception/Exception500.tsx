import Exception from '@app/pages/exception/Exception';

export default function Exception500() {
  return <Exception type="500" />;
}
