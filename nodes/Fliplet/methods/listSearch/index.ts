export { searchApps } from './apps';
export { searchDataSources } from './dataSources';
