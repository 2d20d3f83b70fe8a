export {};
export { getDataSourceColumns } from './dataSources';
