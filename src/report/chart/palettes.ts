// MS Chart's colour palettes (ChartColorPalette), the colours a series (or, for Pie, Doughnut,
// Funnel and Pyramid, a point) takes when it has none of its own, in turn.

import type { Color } from '../frx/model.js';
import { knownColor } from '../frx/colors.js';

const rgb = (r: number, g: number, b: number, a = 255): Color => ({ r, g, b, a });
const named = (...names: string[]): Color[] => names.map((n) => knownColor(n) ?? rgb(0, 0, 0));

const BRIGHT_PASTEL = [
  rgb(65, 140, 240),
  rgb(252, 180, 65),
  rgb(224, 64, 10),
  rgb(5, 100, 146),
  rgb(191, 191, 191),
  rgb(26, 59, 105),
  rgb(255, 227, 130),
  rgb(18, 156, 221),
  rgb(202, 107, 75),
  rgb(0, 92, 219),
  rgb(243, 210, 136),
  rgb(80, 99, 129),
  rgb(241, 185, 168),
  rgb(224, 131, 10),
  rgb(120, 147, 190),
];

const GRAYSCALE = Array.from({ length: 16 }, (_, i) => {
  const v = 200 - i * Math.trunc(180 / 16);
  return rgb(v, v, v);
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
    rgb(153, 153, 255),
    rgb(153, 51, 102),
    rgb(255, 255, 204),
    rgb(204, 255, 255),
    rgb(102, 0, 102),
    rgb(255, 128, 128),
    rgb(0, 102, 204),
    rgb(204, 204, 255),
    rgb(0, 0, 128),
    rgb(255, 0, 255),
    rgb(255, 255, 0),
    rgb(0, 255, 255),
    rgb(128, 0, 128),
    rgb(128, 0, 0),
    rgb(0, 128, 128),
    rgb(0, 0, 255),
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
    rgb(255, 128, 0),
    ...named('DarkGoldenrod'),
    rgb(192, 64, 0),
    ...named('OliveDrab', 'Peru'),
    rgb(192, 192, 0),
    ...named('ForestGreen', 'Chocolate', 'Olive', 'LightSeaGreen', 'SandyBrown'),
    rgb(0, 192, 0),
    ...named('DarkSeaGreen', 'Firebrick', 'SaddleBrown'),
    rgb(192, 0, 0),
  ],
  SemiTransparent: [
    rgb(255, 0, 0, 150),
    rgb(0, 255, 0, 150),
    rgb(0, 0, 255, 150),
    rgb(255, 255, 0, 150),
    rgb(0, 255, 255, 150),
    rgb(255, 0, 255, 150),
    rgb(170, 120, 20, 150),
    rgb(255, 0, 0, 80),
    rgb(0, 255, 0, 80),
    rgb(0, 0, 255, 80),
    rgb(255, 255, 0, 80),
    rgb(0, 255, 255, 80),
    rgb(255, 0, 255, 80),
    rgb(170, 120, 20, 80),
    rgb(100, 120, 50, 150),
    rgb(40, 90, 150, 150),
  ],
  Berry: [
    ...named('BlueViolet', 'MediumOrchid', 'RoyalBlue', 'MediumVioletRed', 'Blue', 'BlueViolet', 'Orchid'),
    ...named('MediumSlateBlue'),
    rgb(192, 0, 192),
    ...named('MediumBlue', 'Purple'),
  ],
  Chocolate: [
    ...named('Sienna', 'Chocolate', 'DarkRed', 'Peru', 'Brown', 'SandyBrown', 'SaddleBrown'),
    rgb(192, 64, 0),
    ...named('Firebrick'),
    rgb(182, 92, 58),
  ],
  Fire: [
    ...named('Gold', 'Red', 'DeepPink', 'Crimson', 'DarkOrange', 'Magenta', 'Yellow', 'OrangeRed', 'MediumVioletRed'),
    rgb(221, 226, 33),
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
