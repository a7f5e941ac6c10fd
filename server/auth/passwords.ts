/** argon2id through Bun.password. Tests lower the cost; production keeps Bun's defaults (64 MiB, t=2). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /** Spends the time of a verify, so a login for an unknown user takes as long as one for a known user. */
  burn(password: string): Promise<void>;
}

export function createPasswordHasher(cost: { memoryCost?: number; timeCost?: number } = {}): PasswordHasher {
  const options = { algorithm: "argon2id" as const, ...cost };
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => Bun.password.hash(password, options),
    verify: (password, hash) => Bun.password.verify(password, hash).catch(() => false),
    async burn(password) {
      dummy ??= Bun.password.hash("vigil-timing-equaliser", options);
      await Bun.password.verify(password, await dummy);
    },
  };
}
