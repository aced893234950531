import { Result } from 'antd';
import { Link } from 'react-router-dom';
import { DESKTOP_MIN_WIDTH_PX } from './useViewportWidth';

/** Spec §2: below 1024 px the panel is not drawn; it says why instead. */
export function DesktopOnlyNotice() {
  return <Result status="info" title="The management panel is desktop only" subTitle={`Open it on a computer with a window at least ${DESKTOP_MIN_WIDTH_PX} px wide.`} extra={<Link to="/">Go to home</Link>} />;
}
