// Paging of searchset and history Bundles lives below the server, beside the search engine that pages its own.
export { pageLinks, pageWindow } from '../../resources/search/paging.ts';
