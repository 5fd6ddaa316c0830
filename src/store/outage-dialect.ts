import type { DatabaseConnection, Dialect, Driver } from 'kysely';
import { asStoreUnavailable } from './store-failure.js';

/** Rethrows a driver's outage error (connection lost, disk full) as StoreUnavailableError. */
async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asStoreUnavailable(error) ?? error;
  }
}

/**
 * The dialect with every driver call's outage errors said as
 * StoreUnavailableError: the one place errors leave the database, so the
 * HTTP layer and the worker recognise an outage by type, never by driver
 * text, and nothing else (a failing fetch in a tool) is mistaken for one.
 */
export function outageAwareDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => outageAwareDriver(dialect.createDriver()),
  };
}

function outageAwareDriver(driver: Driver): Driver {
  // Drivers hand out the same connection objects again: each is wrapped once.
  const wrapped = new WeakSet<DatabaseConnection>();
  const wrap = (connection: DatabaseConnection): DatabaseConnection => {
    if (wrapped.has(connection)) return connection;
    wrapped.add(connection);
    // Patched in place: drivers find their own private members on the object they made.
    const execute = connection.executeQuery.bind(connection);
    connection.executeQuery = (query) => translated(() => execute(query));
    return connection;
  };
  const outer: Driver = {
    init: (options) => translated(() => driver.init(options)),
    acquireConnection: async (options) =>
      wrap(await translated(() => driver.acquireConnection(options))),
    beginTransaction: (connection, settings) =>
      translated(() => driver.beginTransaction(connection, settings)),
    commitTransaction: (connection) => translated(() => driver.commitTransaction(connection)),
    rollbackTransaction: (connection) => translated(() => driver.rollbackTransaction(connection)),
    releaseConnection: (connection, options) => driver.releaseConnection(connection, options),
    destroy: (options) => driver.destroy(options),
  };
  const { savepoint, rollbackToSavepoint, releaseSavepoint } = driver;
  if (savepoint)
    outer.savepoint = (connection, name, compile) =>
      translated(() => savepoint.call(driver, connection, name, compile));
  if (rollbackToSavepoint)
    outer.rollbackToSavepoint = (connection, name, compile) =>
      translated(() => rollbackToSavepoint.call(driver, connection, name, compile));
  if (releaseSavepoint)
    outer.releaseSavepoint = (connection, name, compile) =>
      translated(() => releaseSavepoint.call(driver, connection, name, compile));
  return outer;
}
