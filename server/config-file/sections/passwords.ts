// Password hashing and checking for a file's status pages, done before the apply's transaction: a transaction may
// await only the database (SQLite's single writer), and Bun.password takes a turn of the event loop. The plan run
// before the transaction fills the book; the plan and writes inside it find every answer here.
export class PasswordBook {
  private readonly checks = new Map<string, Promise<boolean>>();
  private readonly hashes = new Map<string, Promise<string>>();

  /** Whether `plain` is the password `hash` was made from. */
  verify(plain: string, hash: string): Promise<boolean> {
    const id = `${hash}\0${plain}`;
    let answer = this.checks.get(id);
    if (!answer) this.checks.set(id, (answer = Bun.password.verify(plain, hash)));
    return answer;
  }

  /** A hash of `plain` (one per password per apply). */
  hash(plain: string): Promise<string> {
    let answer = this.hashes.get(plain);
    if (!answer) this.hashes.set(plain, (answer = Bun.password.hash(plain)));
    return answer;
  }
}
