import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/index.js';

// Prints how many lecture records the configured database holds (0 when the table is missing).
const database = await openDatabase(loadConfig());
try {
  const r = await database.db.selectFrom('sup_lecture_record').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
  console.log(r?.n ?? 0);
} catch {
  console.log(0);
} finally {
  await database.close();
}
