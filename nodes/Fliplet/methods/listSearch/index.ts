export { searchApps } from './apps';
export { searchDataSources, searchDeletedDataSources } from './dataSources';
export { searchOrganizations, searchOrganizationTokens } from './organizations';
