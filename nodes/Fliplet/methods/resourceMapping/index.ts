export {};
export { getDataSourceColumnsMapping } from './dataSources';
