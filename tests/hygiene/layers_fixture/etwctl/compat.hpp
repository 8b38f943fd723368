// Fixture: a face.
#pragma once
