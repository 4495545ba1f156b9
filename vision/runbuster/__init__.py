"""Run Buster at the table: the printed mat, finding it in a photo, reading its dice as a position."""
