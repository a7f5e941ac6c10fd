// The status pages section against the Kuma 2.5.3 sample: slug, title, description, groups with their monitors in
// Kuma's order, the pinned incident as the announcement; re-import updates in place; a user's page is never touched.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Db } from "../../db/database";
import { testDb } from "../../db/test-db";
import { createStatusStore } from "../../status/store";
import { normaliseSlug, statusPagesSection } from "./status-pages";
import { fixtureSource, manifest, runSections, standInMonitors } from "./test-source";

let db: Db;
beforeEach(async () => {
  db = await testDb();
});
afterEach(async () => {
  await db.close();
});

describe("Kuma status pages", () => {
  test("both pages with their groups, monitors and incident; notes for what Vigil lacks; again: updated in place", async () => {
    const source = fixtureSource();
    try {
      const monitors = await standInMonitors(db, source);
      const items = await runSections(db, source, [statusPagesSection]);
      expect(items.map((i) => [i.name, i.action])).toEqual([["northwind", "create"], ["internal-ops", "create"]]);
      const northwindNotes = items[0]!.notes.map((n) => n.text).join(" ");
      expect(northwindNotes).toContain("footer");
      expect(northwindNotes).toContain("custom CSS");
      expect(northwindNotes).toContain("Tags are not shown");
      expect(northwindNotes).toContain("announcement");

      const store = createStatusStore(db);
      const pages = (await store.all()).filter((p) => p.id !== 1);
      expect(pages).toHaveLength(2);
      for (const m of manifest.status_pages) {
        const page = pages.find((p) => p.slug === m.slug)!;
        expect(page).toMatchObject({ title: m.title, description: m.description, visibility: m.published ? "public" : "private" });
        expect(page.groups).toEqual(m.groups.map((g) => ({ name: g.name, items: g.monitors.map((x) => ({ type: "monitor", id: monitors.get(x.id)! })) })));
        const incident = m.incidents[0];
        expect(page.announcement && { severity: page.announcement.severity, text: page.announcement.text }).toEqual(
          incident ? { severity: "warning", text: `${incident.title}\n\n${incident.content}` } : null,
        );
      }

      const again = await runSections(db, source, [statusPagesSection]);
      expect(again.map((i) => i.action)).toEqual(["update", "update"]);
      const after = (await createStatusStore(db).all()).filter((p) => p.id !== 1);
      expect(after.map((p) => [p.id, p.slug])).toEqual(pages.map((p) => [p.id, p.slug]));
      expect(after.map((p) => p.groups)).toEqual(pages.map((p) => p.groups));
    } finally {
      source.close();
    }
  });

  test("a user's own page with the same address is left alone and that Kuma page skipped with the reason", async () => {
    const source = fixtureSource();
    try {
      await standInMonitors(db, source);
      const store = createStatusStore(db);
      const mine = await store.create({ slug: "northwind", title: "Mine", description: "", logo: null, customDomain: null, visibility: "public", announcement: null, showLocations: false, groups: [] });
      const items = await runSections(db, source, [statusPagesSection]);
      expect(items[0]).toMatchObject({ name: "northwind", action: "skip" });
      expect(items[0]!.notes[0]!.text).toContain("already has a status page at /status/northwind that the import did not make");
      expect(items[1]!.action).toBe("create");
      expect((await createStatusStore(db).get(mine))).toMatchObject({ title: "Mine", groups: [] });
    } finally {
      source.close();
    }
  });

  test("Kuma slugs are made Vigil addresses or skipped; monitors that did not come across are left off with a note", async () => {
    expect(normaliseSlug("Northwind_Shop")).toBe("northwind-shop");
    expect(normaliseSlug("--A  b--")).toBe("a-b");
    const source = fixtureSource((k) => {
      k.run("UPDATE status_page SET slug = 'Northwind_Shop' WHERE id = 1");
      k.run("UPDATE status_page SET slug = '___' WHERE id = 2");
      k.run("CREATE TEMP TABLE twin AS SELECT * FROM status_page WHERE id = 2");
      k.run("UPDATE twin SET id = 3, slug = 'northwind-SHOP'");
      k.run("INSERT INTO status_page SELECT * FROM twin");
    });
    try {
      // Only two of the first page's monitors came across.
      const monitors = await standInMonitors(db, source, [4, 12]);
      const items = await runSections(db, source, [statusPagesSection]);
      expect(items[0]!.action).toBe("create");
      expect(items[0]!.notes.map((n) => n.text)).toContain("Its address becomes /status/northwind-shop (Vigil's addresses are lower-case letters, digits and dashes).");
      expect(items[0]!.notes.map((n) => n.text)).toContain("6 of its monitors did not come across and are left off the page.");
      expect(items[1]).toMatchObject({ action: "skip", notes: [{ text: "Its address has no letters or digits, which a Vigil address needs." }] });
      expect(items[2]).toMatchObject({ action: "skip", notes: [{ text: "Another Kuma page already comes across at /status/northwind-shop." }] });
      const page = (await createStatusStore(db).all()).find((p) => p.slug === "northwind-shop")!;
      expect(page.groups).toEqual([
        { name: "Website", items: [{ type: "monitor", id: monitors.get(4)! }] },
        { name: "Backend services", items: [{ type: "monitor", id: monitors.get(12)! }] },
      ]);
    } finally {
      source.close();
    }
  });
});
