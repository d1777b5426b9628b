// MS Chart's colour palettes (ChartColorPalette), the colours a series (or, for Pie, Doughnut,
// Funnel and Pyramid, a point) takes when it has none of its own, in turn.

import type { Color } from '../frx/model.js';
import { knownColor, rgba } from '../frx/colors.js';

const named = (...names: string[]): Color[] => names.map((n) => knownColor(n) ?? rgba(0, 0, 0));

const BRIGHT_PASTEL = [
  rgba(65, 140, 240),
  rgba(252, 180, 65),
  rgba(224, 64, 10),
  rgba(5, 100, 146),
  rgba(191, 191, 191),
  rgba(26, 59, 105),
  rgba(255, 227, 130),
  rgba(18, 156, 221),
  rgba(202, 107, 75),
  rgba(0, 92, 219),
  rgba(243, 210, 136),
  rgba(80, 99, 129),
  rgba(241, 185, 168),
  rgba(224, 131, 10),
  rgba(120, 147, 190),
];

const GRAYSCALE = Array.from({ length: 16 }, (_, i) => {
  const v = 200 - i * Math.trunc(180 / 16);
  return rgba(v, v, v);
});

export const PALETTES: Readonly<Record<string, readonly Color[]>> = {
  BrightPastel: BRIGHT_PASTEL,
  Bright: named(
    'Green',
    'Blue',
    'Purple',
    'Lime',
    'Fuchsia',
    'Teal',
    'Yellow',
    'Gray',
    'Aqua',
    'Navy',
    'Maroon',
    'Red',
    'Olive',
    'Silver',
    'Tomato',
    'Moccasin',
  ),
  Grayscale: GRAYSCALE,
  Excel: [
    rgba(153, 153, 255),
    rgba(153, 51, 102),
    rgba(255, 255, 204),
    rgba(204, 255, 255),
    rgba(102, 0, 102),
    rgba(255, 128, 128),
    rgba(0, 102, 204),
    rgba(204, 204, 255),
    rgba(0, 0, 128),
    rgba(255, 0, 255),
    rgba(255, 255, 0),
    rgba(0, 255, 255),
    rgba(128, 0, 128),
    rgba(128, 0, 0),
    rgba(0, 128, 128),
    rgba(0, 0, 255),
  ],
  Pastel: named(
    'SkyBlue',
    'LimeGreen',
    'MediumOrchid',
    'LightCoral',
    'SteelBlue',
    'YellowGreen',
    'Turquoise',
    'HotPink',
    'Khaki',
    'Tan',
    'DarkSeaGreen',
    'CornflowerBlue',
    'Plum',
    'CadetBlue',
    'PeachPuff',
    'LightSalmon',
  ),
  Light: named(
    'Lavender',
    'LavenderBlush',
    'PeachPuff',
    'LemonChiffon',
    'MistyRose',
    'Honeydew',
    'AliceBlue',
    'WhiteSmoke',
    'AntiqueWhite',
    'LightCyan',
  ),
  EarthTones: [
    rgba(255, 128, 0),
    ...named('DarkGoldenrod'),
    rgba(192, 64, 0),
    ...named('OliveDrab', 'Peru'),
    rgba(192, 192, 0),
    ...named('ForestGreen', 'Chocolate', 'Olive', 'LightSeaGreen', 'SandyBrown'),
    rgba(0, 192, 0),
    ...named('DarkSeaGreen', 'Firebrick', 'SaddleBrown'),
    rgba(192, 0, 0),
  ],
  SemiTransparent: [
    rgba(255, 0, 0, 150),
    rgba(0, 255, 0, 150),
    rgba(0, 0, 255, 150),
    rgba(255, 255, 0, 150),
    rgba(0, 255, 255, 150),
    rgba(255, 0, 255, 150),
    rgba(170, 120, 20, 150),
    rgba(255, 0, 0, 80),
    rgba(0, 255, 0, 80),
    rgba(0, 0, 255, 80),
    rgba(255, 255, 0, 80),
    rgba(0, 255, 255, 80),
    rgba(255, 0, 255, 80),
    rgba(170, 120, 20, 80),
    rgba(100, 120, 50, 150),
    rgba(40, 90, 150, 150),
  ],
  Berry: [
    ...named('BlueViolet', 'MediumOrchid', 'RoyalBlue', 'MediumVioletRed', 'Blue', 'BlueViolet', 'Orchid'),
    ...named('MediumSlateBlue'),
    rgba(192, 0, 192),
    ...named('MediumBlue', 'Purple'),
  ],
  Chocolate: [
    ...named('Sienna', 'Chocolate', 'DarkRed', 'Peru', 'Brown', 'SandyBrown', 'SaddleBrown'),
    rgba(192, 64, 0),
    ...named('Firebrick'),
    rgba(182, 92, 58),
  ],
  Fire: [
    ...named('Gold', 'Red', 'DeepPink', 'Crimson', 'DarkOrange', 'Magenta', 'Yellow', 'OrangeRed', 'MediumVioletRed'),
    rgba(221, 226, 33),
  ],
  SeaGreen: named(
    'SeaGreen',
    'MediumAquamarine',
    'SteelBlue',
    'DarkCyan',
    'CadetBlue',
    'MediumSeaGreen',
    'MediumTurquoise',
    'LightSteelBlue',
    'DarkSeaGreen',
    'SkyBlue',
  ),
};

/** The palette by name; BrightPastel (MS Chart's default) for None or an unknown name. */
export function paletteColors(name: string): readonly Color[] {
  return PALETTES[name] ?? BRIGHT_PASTEL;
}
