import Exception from '@app/pages/exception/Exception';

export default function Exception404() {
  return <Exception type="404" />;
}
