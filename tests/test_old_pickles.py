"""Pickles made by an earlier build still load (issue 40: the state's layout
changed, its pickles did not): states pickled by a build of 48ed460 (4-player
threes and 3-player Three Thirteen, seed 5, 150 random moves with
random.Random(1)) load as the same positions this build reaches by the same
moves."""
from __future__ import annotations

import base64
import pickle
import random

import pytest

import threes
from threes import three_thirteen as tt

PICKLES_48ED460 = {
    "shithead": (
    "gASVxAUAAAAAAACMFHRocmVlcy5zaGl0aGVhZC5nYW1llIwIX3Jlc3RvcmWUk5R9lCiMBmZvcm1hdJSMDnRocmVlcy5TdGF0ZS8x"
    "lIwFcnVsZXOUfZQojAVkZWNrc5RLAowGam9rZXJzlEsCjA5jYXJkc19wZXJfem9uZZRLA4wEd2lsZJRdlCiMATKUjAE4lIwBWJRl"
    "jAVsb3dlcpRdlIwBN5RhjAxsb3dlcl9zdHJpY3SUiYwJaW52aXNpYmxllF2UaA5hjARidXJulF2UKIwBVJRoD2WMC3J1bl90b19i"
    "dXJulEsEjBFpbnZpc2libGVfaW5fcnVuc5SMBHNraXCUjBJidXJuZXJfcGxheXNfYWdhaW6UiIwQcGlja3VwX3RoZW5fcGxheZSI"
    "jBdtZXJnZV9oYW5kX3dpdGhfZmFjZV91cJSJjAVzdGFydJSMEHJhbmstZnJvbS1kZWFsZXKUjAtzdGFydF9yYW5rc5RdlCiMATOU"
    "jAE0lIwBNZSMATaUaBJoDowBOZRoGIwBSpSMAVGUjAFLlIwBQZRoDWgPZYwLc3RhcnRfc3VpdHOUXZSMEHJlcGV0aXRpb25fbGlt"
    "aXSUSwB1jAtudW1fcGxheWVyc5RLBIwGZGVhbGVylEsDjAltYXhfbW92ZXOUTRAnjAVwaGFzZZSMBHBsYXmUjA5jdXJyZW50X3Bs"
    "YXllcpRLAYwKbW92ZV9jb3VudJRLlowJdHJ1bmNhdGVklImMDGZpbmlzaF9vcmRlcpRdlIwFaGFuZHOUXZQoXZQojAI1ZJSMAjZj"
    "lIwCNmSUjAI2aJRoP4wCNnOUaECMAjlklIwCOXOUjAJRZJRlXZQojAIzaJSMAjRolIwCUWOUZV2UKIwCNGOUjAI1Y5SMAktzlGVd"
    "lCiMAjNzlIwCOGSUjAJKc5RlZYwFa25vd26UXZQoXZQoaDxoPWg+aD9oP2hAaEJoQ2VdlF2UKGhJaEtlXZQoaE5oT2VljAdmYWNl"
    "X3VwlF2UKF2UKIwCM2OUaEloS2VdlCiMAlRklIwCVGiUjAJKaJRlXZQoaEOMAlFzlIwCQWSUZV2UKGhOjAJLaJSMAlhylGVljAlm"
    "YWNlX2Rvd26UXZQoXZQoaEKMAlhilIwCSmOUZV2UKGhGjAI4aJSMAkpklGVdlCiMAjVolIwCQXOUaF9lXZQojAJUY5SMAjhzlIwC"
    "OGOUZWWMBHBpbGWUXZQojAI3aJSMAjdzlIwCNGSUjAJRaJSMAkFolIwCMmOUjAIyZJRljAlkcmF3X3BpbGWUXZQojAI3Y5SMAjVz"
    "lIwCVHOUaHlljAZidXJuZWSUXZQoaHpoe4wCMmiUaIOMAjJzlGiEaFmMAjNklGiFaEVoTWh3jAI0c5RohmhKaDxobWh/aD1oPmh+"
    "jAI3ZJRoh2h1aHZocmhqaHGMAjljlGiIaEGMAjlolGiJaHBoW2hcaIBoaGhraF1oT2hHaHiMAktjlGiKjAJLZJRoi2hijAJBY5Ro"
    "jGhgaG5oY2hnZYwHaGlzdG9yeZRdlChL801tAk2SAk1MAksISzBLOEtzSyhLMEsQSyBLIEtQS1hLc0tBSxBLOEtIS2BLMEswS3NL"
    "EEsoSyBLAEtJS0lLAEtQSwBLOEtASyhLKEswSyhLaEsIS1hLYEsxS2BLc0tYS3NLIEtgS3NLKEsxSyhLAEs4S2BLc0tYS3NLGEsg"
    "SyBLOEtYS2FLYEsxS3NLIEsoSwhLCEtYS2hLAUsRSwBLOktASxlLSEtgSzFLYEsASxhLYUtzSzhLWEtzSzhLYEtiS1hLc0tYS1hL"
    "c0tYSwBLGEspSyFLYEtzS1BLWUtYSzFLWEsoSwhLGEtQS2BLMEtzSxhLGUsoSyBLMEtISwBLAEtgS3NLAUsQS1hLc0sKSxtLKEsY"
    "SyBLKEshSyBLOEsBS1BLc0spSxBLUEtgSwFljAlzdGFsZW1hdGWUiYwLcmVwZXRpdGlvbnOUXZR1hZRSlC4="
    ),
    "three_thirteen": (
    "gASVFAUAAAAAAACMGnRocmVlcy50aHJlZV90aGlydGVlbi5nYW1llIwIX3Jlc3RvcmWUk5R9lCiMBmZvcm1hdJSMFnRocmVlcy5U"
    "aHJlZVRoaXJ0ZWVuLzGUjAdvcHRpb25zlH2UKIwFZGVja3OUSwKMBmpva2Vyc5RLAIwDYWNllIwDbG93lIwOYWxsX3dpbGRfbWVs"
    "ZHOUiIwMd2lsZF9wZW5hbHR5lIwEZmFjZZSMD3JlZGlzY2FyZF90YWtlbpSJjBFnb19vdXRfZmlyc3RfdHVybpSIdYwLbnVtX3Bs"
    "YXllcnOUSwOMBXJvdW5klEsCjAZkZWFsZXKUSwGMB2N1cnJlbnSUSwKMBXBoYXNllEsAjAhvdXRfc2VhdJRK/////4wLZmluYWxf"
    "dHVybnOUSwCMCG91dF9tYXNrlEsAjAp0YWtlbl9raW5klEr/////jAl0cnVuY2F0ZWSUiYwKbW92ZV9jb3VudJRLlowJbWF4X21v"
    "dmVzlE0gTowFdHVybnOUXZQoSxhLGEsZZYwMcm91bmRfc2NvcmVzlF2UXZQoSxdLAEsUZWGMBnRvdGFsc5RdlChLF0sASxRljANy"
    "bmeUXZQoignoaZOH7YeS5gCKCFJ543Vlz4ouigiMDVw+m/BBIooI9Bmlxg+7bDlljAtwb29sX2FjdGl2ZZSJjAVoYW5kc5RdlChd"
    "lCiMAjJjlIwCNGSUjAI1aJSMAjdolGVdlCiMAjdjlIwCVGSUjAJKc5SMAlFzlGVdlCiMAjNolIwCNGOUjAI1ZJSMAjZklGVljAVr"
    "bm93bpRdlChdlChoKmgraCxlXZQoaC9oMGgxaDJlXZQoaDVoN2VljAlwb29sX2hhbmSUXZQoXZRdlF2UZYwFc3RvY2uUXZQojAJK"
    "ZJRoMowCUWOUjAJLaJSMAkFzlIwCNmOUaDdoNYwCUWSUjAJKY5SMAlRzlIwCMmiUjAI4aJRoMYwCMmSUjAI5Y5SMAjZolIwCOHOU"
    "jAI2c5SMAjVjlIwCUWiUjAJKaJRoL2hOaFWMAkFolIwCN3OUaCqMAlRjlIwCS3OUjAIyc5RoVmhMaE1oUWhEjAJLY5SMAkFjlIwC"
    "OWSUaDRoLGhQaFyMAktklIwCOGOUjAIzY5RoWWgraEdoXWhGjAIzZJRljAdkaXNjYXJklF2UKIwCN2SUaEVoV4wCVGiUjAI5c5Ro"
    "YWhmaEtoUmhPjAI1c5SMAjNzlIwCNHOUaEmMAjlolIwCOGSUaGloZWhojAJBZJRoZGg2aFhoXmhqaF9oWmhbaGxoYGhIaGdoMGgt"
    "jAI0aJRoVGhKaGtobWhTZYwHaGlzdG9yeZRdlChLAEs4SwBLIksASzNLAUsxSwFLG0sASy5LAEslSwFLF0sBSx1LAEsoSwBLJUsA"
    "SwtLAEslSwBLKUsASxlLAEsiSwBLJ0sBSxNLAUsVSwBLJEsBSw9LAUsNSwBLEUsASyRLAUsTSwFLJEsBSy9LAEskSwBLE0sBSxdL"
    "AUsfSwBLEUsASxNLAUsaSwFLA0sBSwZLAUsoSwBLDUsASwNLAEsbSwBLLUsBSyRLAUsTSwBLJksASzNLAEskSwBLGksBSx5LAUsq"
    "SwFLMUsBSw5LAUseSwBLCUsASzJLAEsGSwFLA0sASwpLAEsWSwBLFUsASydLAEscSwBLJ0sBSxBLAEsPSwFLEEsBSy1LAUsUSwFL"
    "MEsASxBLAUstSwFLKksASx9LAEsQSwBLLUsBSxJldYWUUpQu"
    ),
}


@pytest.mark.parametrize("name, game", [("shithead", threes.Game(4)), ("three_thirteen", tt.Game(3))])
def test_pickles_of_48ed460_load_as_the_same_position(name, game):
    s = game.new_initial_state(5)
    r = random.Random(1)
    for _ in range(150):
        if s.is_terminal():
            break
        s.apply_action(r.choice(s.legal_actions()))
    old = pickle.loads(base64.b64decode(PICKLES_48ED460[name]))
    assert type(old) is type(s)
    assert old == s and old.to_dict() == s.to_dict() and old.history() == s.history()
    old._check()
    assert old.legal_actions() == s.legal_actions()
