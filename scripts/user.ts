// `npm run user -- <command>`: manage accounts from the command line.
//   create --email <e> --password <p> --role <admin|researcher|annotator|viewer> [--name <n>]
//   set-role --email <e> --role <r>
//   set-password --email <e> --password <p>
//   list
import { parseArgs } from "node:util";
import { ROLES } from "@/lib/auth/roles";
import { createUser, listUsers, setUserPassword, setUserRole } from "@/lib/server/users";
import { commandLineEnv, usageError, withDatabase } from "./lib/cli";

const USAGE = `Usage: npm run user -- <command> [options]
  create --email <email> --password <password> --role <${ROLES.join("|")}> [--name <name>]
  set-role --email <email> --role <role>
  set-password --email <email> --password <password>
  list
Options: --database <url> (defaults to DATABASE_URL or data/studio.db)`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
      database: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const env = commandLineEnv(values.database);
  return withDatabase(env.DATABASE_URL, async (db) => {
    try {
      const need = (name: "email" | "password" | "role") => {
        const value = values[name];
        if (!value) throw new UsageError(`--${name} is required for ${command}`);
        return value;
      };
      let result;
      switch (command) {
        case "create":
          result = await createUser(db, { email: need("email"), password: need("password"), role: need("role") as never, name: values.name });
          break;
        case "set-role":
          result = await setUserRole(db, need("email"), need("role"));
          break;
        case "set-password":
          result = await setUserPassword(db, need("email"), need("password"));
          break;
        case "list": {
          const users = await listUsers(db);
          if (users.length === 0) console.log("No users.");
          for (const user of users) console.log(`${user.role.padEnd(10)} ${user.email}${user.name ? `  (${user.name})` : ""}`);
          return 0;
        }
        default:
          throw new UsageError(`Unknown command "${command}"`);
      }
      if (!result.ok) {
        for (const issue of result.issues) console.error(`error: ${issue}`);
        return 1;
      }
      console.log(`${command}: ${result.value.email} is ${result.value.role}`);
      return 0;
    } catch (error) {
      if (error instanceof UsageError) return usageError(error.message, USAGE);
      throw error;
    }
  });
}

class UsageError extends Error {}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
