import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { forgetRefusals, refusedLinks } from "../lib/links/links";
import { skinConfig, stubBff } from "../test/bff";
import { renderWithProviders } from "../test/render";
import { PlatformLink } from "./PlatformLink";

const config = { skin: { ...skinConfig.skin, linkHosts: ["https://sports.example"] } };

afterEach(forgetRefusals);

describe("PlatformLink", () => {
  it("follows no link, and refuses none, before the skin says which hosts it allows", async () => {
    const fetchMock = stubBff({});
    renderWithProviders(<PlatformLink to="https://sports.example/" label="Sports">art</PlatformLink>);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.getByText("art").closest("a")).toBeNull();
    expect(refusedLinks().size).toBe(0);
  });

  it("opens an allowed host in a new tab, and shows a refused link's content unlinked", async () => {
    stubBff({ "/bff/config": config });
    renderWithProviders(
      <>
        <PlatformLink to="https://sports.example/book" label="Sports">sports</PlatformLink>
        <PlatformLink to="/\evil.example" label="Evil">evil</PlatformLink>
      </>,
    );
    const sports = await screen.findByRole("link", { name: "Sports" });
    expect(sports).toHaveAttribute("href", "https://sports.example/book");
    expect(sports).toHaveAttribute("target", "_blank");
    expect(sports).toHaveAttribute("rel", "noopener noreferrer");
    expect(screen.getByText("evil").closest("a")).toBeNull();
    expect([...refusedLinks()]).toEqual([["/\\evil.example", "scheme"]]); // http://evil.example on this http test origin
  });
});
