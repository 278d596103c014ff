-- gridstore schema for PostgreSQL, version 2: honeycomb grids.
-- A grid's layout_kind is 'tiles' (the dense tile packer) or 'honeycomb': items on hexagonal rings
-- around a center item. A honeycomb has one section; its tiles have no sizes, so columns, direction
-- and default_size do not apply to it.
ALTER TABLE grids ADD COLUMN layout_kind text NOT NULL DEFAULT 'tiles'
    CHECK (layout_kind IN ('tiles', 'honeycomb'));

-- The geometry of each honeycomb grid: cells element_width across their flat sides, item_spacing
-- apart, in rows ('pointy-top') or columns ('flat-top'), with the first or the last item in the center.
CREATE TABLE honeycombs (
    grid_id        bigint           PRIMARY KEY REFERENCES grids (id) ON DELETE CASCADE,
    element_width  double precision NOT NULL CHECK (element_width > 0),
    item_spacing   double precision NOT NULL CHECK (item_spacing >= 0),
    orientation    text             NOT NULL DEFAULT 'pointy-top' CHECK (orientation IN ('pointy-top', 'flat-top')),
    center_item    text             NOT NULL DEFAULT 'first' CHECK (center_item IN ('first', 'last'))
);

-- Where each item of a honeycomb grid sits: its ring (0 is the center), axial coordinates q and r,
-- and its frame in points (the bounding box of its hexagon; the content starts at 0, 0).
CREATE TABLE honeycomb_placements (
    grid_id  bigint           NOT NULL REFERENCES grids (id) ON DELETE CASCADE,
    item     integer          NOT NULL CHECK (item >= 0),
    ring     integer          NOT NULL CHECK (ring >= 0),
    q        integer          NOT NULL,
    r        integer          NOT NULL,
    x        double precision NOT NULL,
    y        double precision NOT NULL,
    width    double precision NOT NULL,
    height   double precision NOT NULL,
    PRIMARY KEY (grid_id, item)
);
