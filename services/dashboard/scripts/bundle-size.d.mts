export const FIRST_PAGE_JS_LIMIT_BYTES: number;
export function firstPageJavaScript(distDir: string): Promise<{
  files: { file: string; gzipBytes: number }[];
  totalGzipBytes: number;
}>;
