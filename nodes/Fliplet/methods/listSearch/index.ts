export { searchApps } from './apps';
export { searchDataSources } from './dataSources';
export { searchOrganizations, searchOrganizationTokens } from './organizations';
