// Warren's prompt-progress extension between a watch cache and a Warren
// apiserver (see src/apiserver/http/progress-notify.ts): both sides spell the
// headers from here. Other apiservers ignore them.

/** On a WATCH with allowWatchBookmarks: "send me prompt progress bookmarks"; echoed in the answer when honoured. */
export const PROGRESS_NOTIFY_HEADER = 'x-warren-progress-notify';
/** On any request: "once you have answered, bookmark every progress watch at your current version". */
export const PROGRESS_REQUEST_HEADER = 'x-warren-progress-request';
