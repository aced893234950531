import type { ThemeConfig } from 'antd';

/** The console in the product's honey colours. */
export const adminTheme: ThemeConfig = {
  token: {
    colorPrimary: '#c77d00',
    colorLink: '#a86400',
    borderRadius: 8,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
};
