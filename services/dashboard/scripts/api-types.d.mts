export const API_TYPES_PATH: string;
export const TYPES_INTAKE_BASE_URL: string;
export function apiTypesText(document: object): Promise<string>;
