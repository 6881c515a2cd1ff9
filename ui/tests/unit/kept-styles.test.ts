import { describe, expect, it } from "vitest";
import { cookieWith, hashOf, keptHashes } from "../../src/lib/keptStyles";

describe("kept stylesheets", () => {
  it("reads the hash of a built stylesheet's name and nothing else", () => {
    expect(hashOf("/assets/main-CjBjpzKf.css")).toBe("CjBjpzKf");
    expect(hashOf("/assets/Compare-CoRU5TWL.css")).toBe("CoRU5TWL");
    // A hash with a `-` of its own, a chunk's name with one: read as the
    // server's kept_styles::hash_of reads them.
    expect(hashOf("/assets/main-Czr-sWkE.css")).toBe("Czr-sWkE");
    expect(hashOf("/assets/credit-programs-sU63p1WS.css")).toBe("sU63p1WS");
    expect(hashOf("/media/abc-800.webp")).toBeNull();
    expect(hashOf("https://cdn.example/assets/main-CjBjpzKf.css")).toBeNull();
  });

  it("reads the cookie's hashes among other cookies", () => {
    expect(keptHashes("a=1; styles=CjBjpzKf.CoRU5TWL; b=2")).toEqual(["CjBjpzKf", "CoRU5TWL"]);
    expect(keptHashes("a=1")).toEqual([]);
    expect(keptHashes("styles=../x.ok_hash1")).toEqual(["ok_hash1"]);
  });

  it("puts the new hashes first and keeps at most eight", () => {
    expect(cookieWith(["OldHash1"], ["NewHash1"])).toBe(
      "styles=NewHash1.OldHash1; path=/; max-age=31536000; samesite=lax",
    );
    const many = Array.from({ length: 10 }, (_, i) => `Hash000${i}`);
    const cookie = cookieWith(many, ["NewHash1"]);
    expect(cookie.split(";")[0].split("=")[1].split(".")).toHaveLength(8);
    expect(cookieWith(["NewHash1"], ["NewHash1"])).toContain("styles=NewHash1;");
  });
});
