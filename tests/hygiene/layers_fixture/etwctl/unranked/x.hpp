// Fixture: a folder no layer names.
#pragma once
