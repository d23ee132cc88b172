/**
 * The exports of a CommonJS package loaded with import(): bundled by esbuild
 * they are under `default` only; from source Node gives them named as well.
 */
export const cjsExports = <T>(module: T): T => (module as { default?: T }).default ?? module;
