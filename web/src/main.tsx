// The app's page (app.html: every address but the landing page, which is prerendered; issue 20).
import { boot } from './boot';

boot();
