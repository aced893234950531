import { useEffect, useState } from 'react';

/** Spec §2: the management panel is desktop only, from this width up. */
export const DESKTOP_MIN_WIDTH_PX = 1024;

export function useViewportWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const follow = () => setWidth(window.innerWidth);
    window.addEventListener('resize', follow);
    return () => window.removeEventListener('resize', follow);
  }, []);
  return width;
}
