// The app's page (app.html: every address but the landing page and the dashboard, which have pages
// of their own with prerendered content; issue 20).
import { boot } from './boot';

boot();
