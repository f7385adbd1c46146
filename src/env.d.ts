/** The API context path, from API_BASE at build time (default /jeecg-boot). */
declare const __API_BASE__: string;
