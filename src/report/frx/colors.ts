// .NET colour values as written in .frx files (System.Drawing.ColorConverter, invariant culture):
// a KnownColor name (case-insensitive), "R, G, B", "A, R, G, B", a single ARGB integer,
// "#RRGGBB" / "#AARRGGBB" (and "0x…"/"&h…" hex).

export interface Color {
  r: number;
  g: number;
  b: number;
  /** Alpha, 0 (transparent) … 255 (opaque). */
  a: number;
}

export function rgba(r: number, g: number, b: number, a = 255): Color {
  return { r, g, b, a };
}

export const BLACK: Readonly<Color> = Object.freeze(rgba(0, 0, 0));
export const WHITE: Readonly<Color> = Object.freeze(rgba(255, 255, 255));
export const TRANSPARENT: Readonly<Color> = Object.freeze(rgba(255, 255, 255, 0));

// System.Drawing.KnownColor, in enum order. System colours take the default Windows values
// (what .NET reports without a user theme); all others are the fixed web colours. ARGB hex.
const KNOWN: ReadonlyArray<readonly [string, number]> = [
  ['ActiveBorder', 0xffb4b4b4],
  ['ActiveCaption', 0xff99b4d1],
  ['ActiveCaptionText', 0xff000000],
  ['AppWorkspace', 0xffababab],
  ['Control', 0xfff0f0f0],
  ['ControlDark', 0xffa0a0a0],
  ['ControlDarkDark', 0xff696969],
  ['ControlLight', 0xffe3e3e3],
  ['ControlLightLight', 0xffffffff],
  ['ControlText', 0xff000000],
  ['Desktop', 0xff000000],
  ['GrayText', 0xff6d6d6d],
  ['Highlight', 0xff0078d7],
  ['HighlightText', 0xffffffff],
  ['HotTrack', 0xff0066cc],
  ['InactiveBorder', 0xfff4f7fc],
  ['InactiveCaption', 0xffbfcddb],
  ['InactiveCaptionText', 0xff000000],
  ['Info', 0xffffffe1],
  ['InfoText', 0xff000000],
  ['Menu', 0xfff0f0f0],
  ['MenuText', 0xff000000],
  ['ScrollBar', 0xffc8c8c8],
  ['Window', 0xffffffff],
  ['WindowFrame', 0xff646464],
  ['WindowText', 0xff000000],
  ['Transparent', 0x00ffffff],
  ['AliceBlue', 0xfff0f8ff],
  ['AntiqueWhite', 0xfffaebd7],
  ['Aqua', 0xff00ffff],
  ['Aquamarine', 0xff7fffd4],
  ['Azure', 0xfff0ffff],
  ['Beige', 0xfff5f5dc],
  ['Bisque', 0xffffe4c4],
  ['Black', 0xff000000],
  ['BlanchedAlmond', 0xffffebcd],
  ['Blue', 0xff0000ff],
  ['BlueViolet', 0xff8a2be2],
  ['Brown', 0xffa52a2a],
  ['BurlyWood', 0xffdeb887],
  ['CadetBlue', 0xff5f9ea0],
  ['Chartreuse', 0xff7fff00],
  ['Chocolate', 0xffd2691e],
  ['Coral', 0xffff7f50],
  ['CornflowerBlue', 0xff6495ed],
  ['Cornsilk', 0xfffff8dc],
  ['Crimson', 0xffdc143c],
  ['Cyan', 0xff00ffff],
  ['DarkBlue', 0xff00008b],
  ['DarkCyan', 0xff008b8b],
  ['DarkGoldenrod', 0xffb8860b],
  ['DarkGray', 0xffa9a9a9],
  ['DarkGreen', 0xff006400],
  ['DarkKhaki', 0xffbdb76b],
  ['DarkMagenta', 0xff8b008b],
  ['DarkOliveGreen', 0xff556b2f],
  ['DarkOrange', 0xffff8c00],
  ['DarkOrchid', 0xff9932cc],
  ['DarkRed', 0xff8b0000],
  ['DarkSalmon', 0xffe9967a],
  ['DarkSeaGreen', 0xff8fbc8b],
  ['DarkSlateBlue', 0xff483d8b],
  ['DarkSlateGray', 0xff2f4f4f],
  ['DarkTurquoise', 0xff00ced1],
  ['DarkViolet', 0xff9400d3],
  ['DeepPink', 0xffff1493],
  ['DeepSkyBlue', 0xff00bfff],
  ['DimGray', 0xff696969],
  ['DodgerBlue', 0xff1e90ff],
  ['Firebrick', 0xffb22222],
  ['FloralWhite', 0xfffffaf0],
  ['ForestGreen', 0xff228b22],
  ['Fuchsia', 0xffff00ff],
  ['Gainsboro', 0xffdcdcdc],
  ['GhostWhite', 0xfff8f8ff],
  ['Gold', 0xffffd700],
  ['Goldenrod', 0xffdaa520],
  ['Gray', 0xff808080],
  ['Green', 0xff008000],
  ['GreenYellow', 0xffadff2f],
  ['Honeydew', 0xfff0fff0],
  ['HotPink', 0xffff69b4],
  ['IndianRed', 0xffcd5c5c],
  ['Indigo', 0xff4b0082],
  ['Ivory', 0xfffffff0],
  ['Khaki', 0xfff0e68c],
  ['Lavender', 0xffe6e6fa],
  ['LavenderBlush', 0xfffff0f5],
  ['LawnGreen', 0xff7cfc00],
  ['LemonChiffon', 0xfffffacd],
  ['LightBlue', 0xffadd8e6],
  ['LightCoral', 0xfff08080],
  ['LightCyan', 0xffe0ffff],
  ['LightGoldenrodYellow', 0xfffafad2],
  ['LightGray', 0xffd3d3d3],
  ['LightGreen', 0xff90ee90],
  ['LightPink', 0xffffb6c1],
  ['LightSalmon', 0xffffa07a],
  ['LightSeaGreen', 0xff20b2aa],
  ['LightSkyBlue', 0xff87cefa],
  ['LightSlateGray', 0xff778899],
  ['LightSteelBlue', 0xffb0c4de],
  ['LightYellow', 0xffffffe0],
  ['Lime', 0xff00ff00],
  ['LimeGreen', 0xff32cd32],
  ['Linen', 0xfffaf0e6],
  ['Magenta', 0xffff00ff],
  ['Maroon', 0xff800000],
  ['MediumAquamarine', 0xff66cdaa],
  ['MediumBlue', 0xff0000cd],
  ['MediumOrchid', 0xffba55d3],
  ['MediumPurple', 0xff9370db],
  ['MediumSeaGreen', 0xff3cb371],
  ['MediumSlateBlue', 0xff7b68ee],
  ['MediumSpringGreen', 0xff00fa9a],
  ['MediumTurquoise', 0xff48d1cc],
  ['MediumVioletRed', 0xffc71585],
  ['MidnightBlue', 0xff191970],
  ['MintCream', 0xfff5fffa],
  ['MistyRose', 0xffffe4e1],
  ['Moccasin', 0xffffe4b5],
  ['NavajoWhite', 0xffffdead],
  ['Navy', 0xff000080],
  ['OldLace', 0xfffdf5e6],
  ['Olive', 0xff808000],
  ['OliveDrab', 0xff6b8e23],
  ['Orange', 0xffffa500],
  ['OrangeRed', 0xffff4500],
  ['Orchid', 0xffda70d6],
  ['PaleGoldenrod', 0xffeee8aa],
  ['PaleGreen', 0xff98fb98],
  ['PaleTurquoise', 0xffafeeee],
  ['PaleVioletRed', 0xffdb7093],
  ['PapayaWhip', 0xffffefd5],
  ['PeachPuff', 0xffffdab9],
  ['Peru', 0xffcd853f],
  ['Pink', 0xffffc0cb],
  ['Plum', 0xffdda0dd],
  ['PowderBlue', 0xffb0e0e6],
  ['Purple', 0xff800080],
  ['Red', 0xffff0000],
  ['RosyBrown', 0xffbc8f8f],
  ['RoyalBlue', 0xff4169e1],
  ['SaddleBrown', 0xff8b4513],
  ['Salmon', 0xfffa8072],
  ['SandyBrown', 0xfff4a460],
  ['SeaGreen', 0xff2e8b57],
  ['SeaShell', 0xfffff5ee],
  ['Sienna', 0xffa0522d],
  ['Silver', 0xffc0c0c0],
  ['SkyBlue', 0xff87ceeb],
  ['SlateBlue', 0xff6a5acd],
  ['SlateGray', 0xff708090],
  ['Snow', 0xfffffafa],
  ['SpringGreen', 0xff00ff7f],
  ['SteelBlue', 0xff4682b4],
  ['Tan', 0xffd2b48c],
  ['Teal', 0xff008080],
  ['Thistle', 0xffd8bfd8],
  ['Tomato', 0xffff6347],
  ['Turquoise', 0xff40e0d0],
  ['Violet', 0xffee82ee],
  ['Wheat', 0xfff5deb3],
  ['White', 0xffffffff],
  ['WhiteSmoke', 0xfff5f5f5],
  ['Yellow', 0xffffff00],
  ['YellowGreen', 0xff9acd32],
  ['ButtonFace', 0xfff0f0f0],
  ['ButtonHighlight', 0xffffffff],
  ['ButtonShadow', 0xffa0a0a0],
  ['GradientActiveCaption', 0xffb9d1ea],
  ['GradientInactiveCaption', 0xffd7e4f2],
  ['MenuBar', 0xfff0f0f0],
  ['MenuHighlight', 0xff3399ff],
  ['RebeccaPurple', 0xff663399],
];

function fromArgb(argb: number): Color {
  const v = argb >>> 0;
  return { a: (v >>> 24) & 0xff, r: (v >>> 16) & 0xff, g: (v >>> 8) & 0xff, b: v & 0xff };
}

const BY_NAME = new Map<string, Color>(KNOWN.map(([name, argb]) => [name.toLowerCase(), fromArgb(argb)]));

/** The KnownColor names, in .NET enum order. */
export const KNOWN_COLOR_NAMES: readonly string[] = KNOWN.map(([name]) => name);

/** Looks up a .NET KnownColor by name (case-insensitive). */
export function knownColor(name: string): Color | undefined {
  const c = BY_NAME.get(name.trim().toLowerCase());
  return c ? { ...c } : undefined;
}

/**
 * Parses a colour as FastReport writes it. Returns undefined for an unusable value.
 * An empty string is Color.Empty in .NET, which draws like Transparent.
 */
export function parseColor(text: string): Color | undefined {
  const s = text.trim();
  if (s === '') return rgba(0, 0, 0, 0);
  const named = BY_NAME.get(s.toLowerCase());
  if (named) return { ...named };
  let hex: string | undefined;
  if (s.startsWith('#')) hex = s.slice(1);
  else if (/^(0x|&h)/i.test(s)) hex = s.slice(2);
  if (hex !== undefined) {
    if (!/^[0-9a-f]{1,8}$/i.test(hex)) return undefined;
    const v = parseInt(hex, 16);
    // "#RRGGBB" (six digits or fewer) is opaque; "#AARRGGBB" carries its alpha.
    return hex.length <= 6 ? fromArgb(0xff000000 | v) : fromArgb(v);
  }
  const parts = s.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^[+-]?\d+$/.test(p))) return undefined;
  const nums = parts.map((p) => Number(p));
  if (nums.length === 1) {
    const v = nums[0] as number;
    if (v < -2147483648 || v > 4294967295) return undefined;
    return fromArgb(v);
  }
  if (nums.some((n) => n < 0 || n > 255)) return undefined;
  if (nums.length === 3) return rgba(nums[0] as number, nums[1] as number, nums[2] as number);
  if (nums.length === 4) return rgba(nums[1] as number, nums[2] as number, nums[3] as number, nums[0] as number);
  return undefined;
}

/** CSS notation, for exports and messages: `#rrggbb` when opaque, `rgba(…)` otherwise. */
export function colorToCss(c: Color): string {
  if (c.a === 255) return `#${[c.r, c.g, c.b].map((n) => n.toString(16).padStart(2, '0')).join('')}`;
  return `rgba(${c.r}, ${c.g}, ${c.b}, ${+(c.a / 255).toFixed(3)})`;
}
