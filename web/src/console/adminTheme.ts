import type { ThemeConfig } from 'antd';

/**
 * The console in the product's honey colours, dark enough for WCAG AA (issue 20): white on the
 * primary 5.7:1 and the primary on its light selected background over 4.5:1; the error red and
 * the secondary text darker than antd's defaults (3.3:1 on an info alert), which axe-core failed.
 */
export const adminTheme: ThemeConfig = {
  token: {
    colorPrimary: '#8f5b00',
    colorLink: '#8f5b00',
    colorError: '#cf1322',
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    // Placeholders in tables (0.25 was 1.8:1).
    colorTextQuaternary: 'rgba(0, 0, 0, 0.6)',
    borderRadius: 8,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    // The selected page in the side menu: the primary on a pale honey, 5:1.
    Menu: { itemSelectedBg: '#f5efe0', itemSelectedColor: '#8f5b00' },
  },
};
