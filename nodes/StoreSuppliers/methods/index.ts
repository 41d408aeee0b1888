export { listSearch, recordSearch } from './listSearch';
export { loadOptions } from './loadOptions';
