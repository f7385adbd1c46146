import Exception from '@app/pages/exception/Exception';

export default function Exception403() {
  return <Exception type="403" />;
}
