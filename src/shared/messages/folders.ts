// Reads one file from every registered locale's folder (content/messages/<locale>/): the tables of
// content/messages/ are built by it from the registry (src/shared/locales.ts), so a locale is its
// registry line and its folder, with no list of imports to keep beside them. The compiler checks
// each folder's files against their types; this checks that each registered locale has them.

/**
 * `exportName` of each locale's file, by locale. `load` imports the file (a template-literal
 * import, which Vite, esbuild and Node all resolve from the folders on disk). A missing file or
 * export stops the import of the table with the locale and the file named.
 */
export async function readFolders<L extends string, T>(
  locales: readonly L[],
  load: (locale: L) => Promise<Record<string, unknown>>,
  exportName: string,
  file: string,
): Promise<Record<L, T>> {
  const entries = await Promise.all(
    locales.map(async (locale) => {
      let module: Record<string, unknown>;
      try {
        module = await load(locale);
      } catch (error) {
        throw new Error(
          `The locale "${locale}" is in the registry (src/shared/locales.ts) but content/messages/${locale}/${file} could not be read: ${String(error)}`,
          { cause: error },
        );
      }
      const value = module[exportName];
      if (typeof value !== 'object' || value === null)
        throw new Error(`content/messages/${locale}/${file} does not export "${exportName}".`);
      return [locale, value] as const;
    }),
  );
  // Each value's type is checked where it is written (the folder's file is annotated with it).
  return Object.fromEntries(entries) as Record<L, T>;
}
