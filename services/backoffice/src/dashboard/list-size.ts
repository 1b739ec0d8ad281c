/** How many rows the dashboard lists show (restock goods, newest questions): a dashboard widget, not a page. */
export const DASHBOARD_LIST_SIZE = 10;
