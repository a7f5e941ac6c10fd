// Imported by main.ts before anything loads Elysia, which reads NODE_ENV once, at load time. In production mode a
// request that fails validation is not pretty-printed (with the submitted value) into its error object, which costs
// time and memory an attacker chooses. The executable always runs in production mode; a source run (`bun
// server/main.ts`, npm start) does too unless NODE_ENV says otherwise (npm run dev sets "development").
if (Bun.isStandaloneExecutable || !process.env.NODE_ENV) process.env.NODE_ENV = "production";
