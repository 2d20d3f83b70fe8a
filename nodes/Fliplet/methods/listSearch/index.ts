export { searchApps } from './apps';
