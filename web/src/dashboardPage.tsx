// The dashboard's page (dashboard.html, served at /loan-app): the app, drawn over the dashboard's
// frame prerendered into the page (issue 20). An entry of its own, as Vite names one per page.
import { boot } from './boot';

boot();
