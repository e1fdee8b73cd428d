import { darwinLayout } from "./darwin";
import { freebsdLayout } from "./freebsd";
import type { PlatformLayout } from "./layout";
import { SIXTY_FOUR_BIT_ARCHES } from "./layout";
import { linuxLayout } from "./linux";

/**
 * The layout for `platform`/`arch`, or a string saying why the native backend does not support them
 * (the caller turns it into its "cannot load" error).
 */
export function platformLayout(platform: string, arch: string): PlatformLayout | string {
  if (!SIXTY_FOUR_BIT_ARCHES.includes(arch)) {
    return `the native backend supports 64-bit architectures only (${SIXTY_FOUR_BIT_ARCHES.join(", ")}), not ${arch}`;
  }
  switch (platform) {
    case "linux":
      return linuxLayout(arch);
    case "darwin":
      return darwinLayout(arch);
    case "freebsd":
      return freebsdLayout(arch);
    default:
      return `the native backend supports linux, darwin and freebsd, not ${platform}`;
  }
}
