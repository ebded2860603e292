// `npm run user -- <command>`: manage accounts from the command line.
//   create --email <e> --password <p> --role <admin|researcher|annotator|viewer> [--name <n>]
//   set-role --email <e> --role <r>
//   set-password --email <e> --password <p>
//   list
//   token create --email <e> --name <token name> [--expires-days <n>]   (prints the token alone on stdout)
//   token list [--email <e>]
//   token revoke --id <token id>
import { parseArgs } from "node:util";
import { ROLES } from "@/lib/auth/roles";
import type { Database } from "@/lib/server/db";
import { issueApiToken, listAllApiTokens, revokeApiTokenById } from "@/lib/server/tokens";
import { createUser, listUsers, setUserPassword, setUserRole } from "@/lib/server/users";
import { commandLineEnv, usageError, withDatabase } from "./lib/cli";

const USAGE = `Usage: npm run user -- <command> [options]
  create --email <email> --password <password> --role <${ROLES.join("|")}> [--name <name>]
  set-role --email <email> --role <role>
  set-password --email <email> --password <password>
  list
  token create --email <email> --name <token name> [--expires-days <n>]
                 prints the new API access token alone on stdout (it is shown once, stored hashed)
  token list [--email <email>]
  token revoke --id <token id>
Options: --database <url> (defaults to DATABASE_URL or data/studio.db)`;

/** Personal access tokens for the HTTP API (see docs/api.md). */
async function tokenCommand(db: Database, action: string | undefined, values: { email?: string; name?: string; id?: string; "expires-days"?: string }): Promise<number> {
  const userByEmail = async (email: string) => db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  switch (action) {
    case "create": {
      if (!values.email || !values.name) throw new UsageError("token create needs --email and --name");
      const days = values["expires-days"];
      if (days !== undefined && !/^\d+$/.test(days)) throw new UsageError("--expires-days must be a whole number of days");
      const user = await userByEmail(values.email);
      if (!user) {
        console.error(`error: email: no user with ${values.email}`);
        return 1;
      }
      const issued = await issueApiToken(db, user.id, { name: values.name, ...(days !== undefined ? { expiresDays: Number(days) } : {}) });
      if (!issued.ok) {
        for (const issue of issued.issues) console.error(`error: ${issue}`);
        return 1;
      }
      console.error(`token ${issued.view.id} for ${issued.view.userEmail}${issued.view.expiresAt ? `, expires ${issued.view.expiresAt}` : ", no expiry"}; it is not shown again`);
      console.log(issued.token);
      return 0;
    }
    case "list": {
      const user = values.email ? await userByEmail(values.email) : null;
      if (values.email && !user) {
        console.error(`error: email: no user with ${values.email}`);
        return 1;
      }
      const tokens = await listAllApiTokens(db, user?.id);
      if (tokens.length === 0) console.log("No tokens.");
      for (const token of tokens) {
        console.log([token.id, token.state.padEnd(7), token.userEmail, token.hint, JSON.stringify(token.name), `created ${token.createdAt}`, token.expiresAt ? `expires ${token.expiresAt}` : "no expiry", token.lastUsedAt ? `last used ${token.lastUsedAt}` : "never used"].join("  "));
      }
      return 0;
    }
    case "revoke": {
      if (!values.id) throw new UsageError("token revoke needs --id");
      if (!(await revokeApiTokenById(db, values.id))) {
        console.error(`error: id: no active token ${values.id}`);
        return 1;
      }
      console.log(`revoked token ${values.id}`);
      return 0;
    }
    default:
      throw new UsageError(`Unknown token command "${action ?? ""}" (create, list or revoke)`);
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
      id: { type: "string" },
      "expires-days": { type: "string" },
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
        case "token":
          return await tokenCommand(db, positionals[1], values);
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
