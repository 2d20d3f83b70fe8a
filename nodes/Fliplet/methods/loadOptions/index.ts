export {};
export { getDataSourceColumns } from './dataSources';
export { getDataSourceSortColumns } from './dataSources';
