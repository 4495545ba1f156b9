"""Run Buster at the table: the printed mat, finding it in a photo, reading its dice as a position.

- `mat`: the layout as data (ArUco markers, each player's hand and roll zone, in A3 millimetres);
- `printable`: the mat drawn for printing, as PNG or a one-page PDF (`tablesight mat runbuster`);
- `locate`: the markers found in a photo, the homography and a camera estimate that corrects parallax;
- `topdown`: the mat seen from straight above at the height of the dice's middle and of their tops;
- `footprints`: a small network that moves a die's footprint onto its top face;
- `faces`: a small network that reads a top face's value in the view at the dice's tops;
- `zones`: recognised dice placed on the mat and in their zones (`read_mat_photo` runs the whole way);
- `position`: the zones as a Run Buster position, the rules' verdict in words, and the advisor's options.
"""
