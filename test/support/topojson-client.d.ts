// The dev dependency topojson-client ships no types: the one function the US states shapefile
// builder uses (TopoJSON object → GeoJSON, as its README documents).
declare module 'topojson-client' {
  export function feature(
    topology: unknown,
    object: unknown,
  ): {
    type: 'FeatureCollection';
    features: {
      id?: string;
      properties: Record<string, unknown>;
      geometry:
        | { type: 'Polygon'; coordinates: number[][][] }
        | { type: 'MultiPolygon'; coordinates: number[][][][] }
        | null;
    }[];
  };
}
