/** What a borrower is told when a new version of the app is installed and waits for the next visit (issue 20). */
export const NEW_VERSION_TOAST = {
  title: 'New version available',
  description: 'Honeylend has been updated. The new version opens on your next visit.',
};
