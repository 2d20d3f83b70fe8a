export { getDataSourceColumnsMapping, getDataSourceColumnsToMatch } from './dataSources';
